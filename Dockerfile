# Build: docker build -t photo-validator .
# Run:   docker run -p 8080:8080 photo-validator
# The daemon listens on 0.0.0.0 inside the container; configure it with PHOTO_VALIDATOR_* variables.
ARG SWIFT_VERSION=6.1
FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libvips-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product photo-validator \
    && cp "$(swift build -c release --show-bin-path)/photo-validator" /photo-validator

FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libvips42 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --no-create-home --shell /usr/sbin/nologin photo-validator
COPY --from=build /photo-validator /usr/local/bin/photo-validator
USER photo-validator
ENV PHOTO_VALIDATOR_HTTP_HOST=0.0.0.0
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=3s CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q 200 <&3"]
ENTRYPOINT ["/usr/local/bin/photo-validator"]
CMD ["serve"]
