# The production image: the default build served by remix-serve, nothing else.
# Build:  docker build -t app .           Run: docker run -p 3000:3000 app
# docs/deploying.md explains the variables, releases and source maps, and shutdown timing.
#
# No "# syntax=" line: the Dockerfile frontend built into BuildKit is enough
# (RUN --mount needs BuildKit), and a syntax image would have to be pulled.

# Any official Node 24 image (the deploy checks build on the one their
# NODE_IMAGE names, by default this one).
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Every dependency, dev ones included: the build needs Vite, Remix's compiler, Sentry's plugin.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's postinstall applies them (docs/decisions/0030-route-matching-cache.md, 0097, 0103).
COPY patches/*.patch ./patches/
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# 2. The default production build (no fixture routes). The browser's source maps
#    are uploaded to Sentry and deleted, or never built; the server's stay, for
#    stacks that name the source (vite.config.ts).
FROM deps AS build
COPY remix.config.js vite.config.ts tsconfig.json ./
COPY public ./public
COPY app ./app
COPY server ./server
COPY vite ./vite
# The release the maps are uploaded for, and the Sentry project. Being ARGs used
# by the RUN below, they are also part of its cache key: a release build never
# reuses a build step that ran without them. The token is a BuildKit secret
# (docker build --secret id=sentry_auth_token,env=SENTRY_AUTH_TOKEN): mounted for
# this one step only, it is in no layer, no ARG and no image history.
ARG SENTRY_RELEASE=""
ARG SENTRY_ORG=""
ARG SENTRY_PROJECT=""
# A self-hosted Sentry's address; unset, the upload goes to sentry.io.
ARG SENTRY_URL=""
RUN --mount=type=secret,id=sentry_auth_token \
    [ -n "$SENTRY_URL" ] || unset SENTRY_URL; \
    if [ -s /run/secrets/sentry_auth_token ]; then \
      if [ -z "$SENTRY_RELEASE" ]; then \
        echo "SENTRY_RELEASE (build argument) is needed to upload source maps for the image's release" >&2; \
        exit 1; \
      fi; \
      SENTRY_AUTH_TOKEN="$(cat /run/secrets/sentry_auth_token)"; \
      export SENTRY_AUTH_TOKEN; \
    fi; \
    npm run build \
    && if find build/client -name '*.map' | grep .; then echo "browser source maps left in the build" >&2; exit 1; fi

# 3. Production dependencies only. Optional ones are left out too: the server
#    loads none of them (TypeScript, an optional peer of Remix's packages; a React
#    Native text-encoding fallback), and no install script runs (our patches are
#    applied). Remix's browser SDK is a development dependency (the build bundles
#    it), so neither it nor its older server SDK is in the image. Then what some
#    packages ship beside their code goes: source maps, TypeScript (Node never
#    runs TypeScript from node_modules), and their own tests (also *.test.js files), fixtures,
#    benchmarks and examples (folders at a package's top only).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches/*.patch ./patches/
# No install script runs, but our own patches are applied (route matching, single fetch, the renderer's routes).
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
    && npx --no-install patch-package --error-on-fail \
    && find /app/node_modules -type f \( -name '*.map' -o -name '*.test.js' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) -delete \
    && find /app/node_modules -depth -type d \
         -regex '.*/node_modules/\(@[^/]*/[^/]*\|[^@/][^/]*\)/\(test\|tests\|__tests__\|fixtures\|benchmarks\|examples\)' \
         -exec rm -rf {} +

# 4. What runs: the built app and its production dependencies, owned by root and
#    read-only to the user the server runs as.
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production PORT=3000
# The release the server reports, the same one the maps were uploaded for.
ARG SENTRY_RELEASE=""
ENV SENTRY_RELEASE=${SENTRY_RELEASE}
COPY package.json boot.mjs ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
# The official image's user `node`, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000
# /healthz on the port the server listens on. Node's fetch: slim images have no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT||3000}/healthz`,{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is the container's process 1, with no npm or shell in between, so
# SIGTERM from `docker stop` reaches the server that drains (docs/decisions/0010).
# The base image's entrypoint script is cleared. remix-serve's bin is dist/cli.js.
ENTRYPOINT []
CMD ["node", "--import", "./boot.mjs", "node_modules/@remix-run/serve/dist/cli.js", "build/server/index.js"]
