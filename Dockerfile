# photo-validator: a release build on the official Swift image, run on debian:bookworm-slim.
#
#   docker build --build-arg GIT_REVISION="$(git describe --always --dirty --abbrev=12)" -t photo-validator .
#   docker run -p 8080:8080 -v photo-validator-state:/var/lib/photo-validator photo-validator
#
# The build stage is scripts/build-release, the same script a release build outside Docker uses.
# scripts/check-runtime-image proves the runtime stage without a Docker engine: a debootstrap
# chroot of bookworm with exactly the packages installed below, the same binary, photos validated,
# /healthz, an upload and a signal forwarded to a Temporal dev server (README, "Release checks").
#
# apt packages are not pinned to versions (hadolint DL3008, ignored below): bookworm's archive and
# security suites keep only the newest revision of a package, so a pinned version stops being
# installable at the next security update; pin the base images by digest instead when a build
# must be reproducible byte for byte.
ARG SWIFT_VERSION=6.3.1

FROM swift:${SWIFT_VERSION}-bookworm AS build
# libvips-dev, libjpeg62-turbo-dev, libavcodec-dev and libwebp-dev for the decoder (JPEG pixels go through
# libjpeg-turbo directly, HEIC tiles through FFmpeg's HEVC decoder, still WebPs through libwebp), libsqlite3-dev for the outbox (GRDB links the system SQLite),
# libseccomp-dev for the decode workers' seccomp allow-list (CSandbox).
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libvips-dev libjpeg62-turbo-dev libavcodec-dev libwebp-dev libsqlite3-dev libseccomp-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift dependencies.txt ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY Fuzz ./Fuzz
COPY scripts/build-release scripts/check-dependencies ./scripts/
ARG GIT_REVISION=unknown
# A pipe below must fail the build when its first command fails (hadolint DL4006).
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# The resolved package versions must be the reviewed ones (dependencies.txt).
RUN scripts/check-dependencies \
    && PHOTO_VALIDATOR_GIT_REVISION="${GIT_REVISION}" scripts/build-release > /tmp/binary \
    && cp "$(cat /tmp/binary)" /photo-validator \
    && /photo-validator --version --verbose | tee /versions.txt

FROM debian:bookworm-slim
# Exactly what the binary loads besides glibc (the Swift runtime is linked in statically):
# libvips42 (with libheif1 and the image codecs it depends on), libjpeg62-turbo (linked directly
# for JPEG pixels), libavcodec59 (FFmpeg's HEVC decoder for HEIC tiles), libwebp7 (linked directly for still WebP pixels), libsqlite3-0 for the outbox, libseccomp2 for the decode workers' seccomp filter, and ca-certificates for https to Temporal Cloud
# or a webhook.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libvips42 libjpeg62-turbo libavcodec59 libwebp7 libsqlite3-0 libseccomp2 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o 10001 -g 10001 -m 0700 /var/lib/photo-validator
COPY --from=build /photo-validator /usr/local/bin/photo-validator
# What `photo-validator --version --verbose` printed at build time: the decoder libraries and Swift
# packages; the labels say where to look and which decoder packages the image installs.
COPY --from=build /versions.txt /usr/share/doc/photo-validator/versions.txt
ARG GIT_REVISION=unknown
LABEL org.opencontainers.image.title="photo-validator" \
      org.opencontainers.image.version="1.0.0" \
      org.opencontainers.image.revision="${GIT_REVISION}" \
      io.photo-validator.decoders="libvips42, libjpeg62-turbo, libavcodec59, libwebp7 from Debian bookworm; exact versions: photo-validator --version --verbose, /usr/share/doc/photo-validator/versions.txt"
# STATE_DIRECTORY plays systemd's part: the outbox defaults to /var/lib/photo-validator/outbox.sqlite,
# on the volume below, writable by the numeric user. MALLOC_ARENA_MAX=2 keeps glibc from giving
# every decoding thread its own heap; benchmarks/measure-arenas compares it with the default
# (README, "Memory": not yet measured with the release binary).
ENV PHOTO_VALIDATOR_HTTP_HOST=0.0.0.0 \
    STATE_DIRECTORY=/var/lib/photo-validator \
    MALLOC_ARENA_MAX=2
VOLUME ["/var/lib/photo-validator"]
WORKDIR /var/lib/photo-validator
USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
# /healthz never needs the bearer token; bash's /dev/tcp avoids installing curl.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PHOTO_VALIDATOR_HTTP_PORT:-8080} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["/usr/local/bin/photo-validator"]
CMD ["serve"]
