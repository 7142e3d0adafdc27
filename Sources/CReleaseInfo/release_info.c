#include "release_info.h"

// Package.swift defines PHOTO_VALIDATOR_GIT_REVISION as a bare token (letters, digits, '.', '-',
// '+'); stringifying here avoids passing quotes through the build system's command lines.
#define PV_STRINGIFY_(x) #x
#define PV_STRINGIFY(x) PV_STRINGIFY_(x)

const char *photo_validator_git_revision(void) {
    return PV_STRINGIFY(PHOTO_VALIDATOR_GIT_REVISION);
}

const char *photo_validator_packages(void) {
    return PV_STRINGIFY(PHOTO_VALIDATOR_PACKAGES);
}
