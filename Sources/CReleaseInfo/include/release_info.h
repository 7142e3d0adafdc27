#ifndef PHOTO_VALIDATOR_RELEASE_INFO_H
#define PHOTO_VALIDATOR_RELEASE_INFO_H

/// The git revision this binary was built from, as Package.swift received it at build time
/// (PHOTO_VALIDATOR_GIT_REVISION), or "unknown".
const char *photo_validator_git_revision(void);

/// The Swift packages the build resolved, as `name=version` pairs joined by ';' (from
/// dependencies.txt at build time), or "unknown".
const char *photo_validator_packages(void);

#endif
