# syntax=docker/dockerfile:1
# The mall-api mock servers as a container image (deploy/compose.yaml runs two replicas behind a
# load balancer; docs/guides/deployment.md explains every setting). Stages:
#   build    - `npm ci` and the whole build (bundles, packages, prepared answers, docs site), then
#              `npm pack` of the seven packages the mock runs on, unpacked as the published files only
#   deps     - their production dependencies from the lock file (`npm ci --omit=dev` for the mock's
#              workspaces: no build tools, test runners or docs packages)
#   docs     - the static docs site (docs/dist) served by nginx, the compose file's `docs` service
#   runtime  - (the default target) Node.js, the packed packages and their production dependencies,
#              run as the unprivileged `node` user; every option comes from MALL_API_MOCK_* variables
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund \
 && npx turbo run build docs --output-logs=errors-only
# The published files of each package the mock needs (package.json "files": no tests, no source maps).
RUN set -eu; mkdir -p /packs /tree; \
    for dir in specs packages/spec-model packages/rate-limit packages/auth packages/mall-state packages/sandbox packages/mock-server; do \
      tarball=$(npm pack --silent --pack-destination /packs -w "$dir" | tail -n 1); \
      mkdir -p "/tree/$dir"; \
      tar -xzf "/packs/$tarball" -C "/tree/$dir" --strip-components=1; \
    done; \
    cp package.json package-lock.json /tree/

FROM node:${NODE_VERSION}-bookworm AS deps
WORKDIR /app
COPY --from=build /tree/ ./
# better-sqlite3 (mall-state's store for the sandbox's --data-dir) fetches or compiles its native binding here,
# where the full image has the build tools; the runtime image does not need them.
RUN npm ci --omit=dev --no-audit --no-fund -w @mall-api/mock-server -w @mall-api/sandbox -w @mall-api/mall-state \
 && npm cache clean --force

FROM nginx:1.27-alpine AS docs
COPY --from=build /src/docs/dist /usr/share/nginx/html
EXPOSE 80
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD wget -q -O /dev/null http://127.0.0.1/ || exit 1

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    MALL_API_MOCK_HOST=0.0.0.0 \
    MALL_API_MOCK_LOG_FORMAT=json \
    HEALTHCHECK_PORT=4010
WORKDIR /app
COPY --from=deps --chown=root:root /app ./
RUN ln -s /app/packages/mock-server/bin/mall-api-mock.js /usr/local/bin/mall-api-mock \
 && chmod 0755 /app/packages/mock-server/bin/mall-api-mock.js
USER node
EXPOSE 4010 4011 4012
# /__ready answers 200 once every API of the process listens, 503 while starting, stopping or when
# a store it needs is down; HEALTHCHECK_PORT names the port to ask (any served API's port).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.HEALTHCHECK_PORT + '/__ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) lets requests in flight finish (MALL_API_MOCK_SHUTDOWN_TIMEOUT, 10 s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["mall-api-mock"]
