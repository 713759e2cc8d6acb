# The site builder for the production-like topology (docker-compose.yml): receives the signed
# rebuild webhook, builds the site's code once per code version and renders the pages an edit
# touches from admin-api (a full export when needed), and switches the live folder on the shared
# `site` volume that nginx serves.

# Only the npm manifests (the lockfile, .npmrc, every workspace's package.json, which `npm ci`
# checks against the lockfile): the install below is redone only when dependencies change, and a
# new workspace needs no new line here.
FROM node:24-bookworm-slim AS manifests
WORKDIR /app
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -type d -empty -delete

# What the site's renderer needs at run time: the site's dependencies (astro, react, sharp, fonts …), not
# its test tools or TypeScript, nor the root's `node` package (this image has Node 24).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY --from=manifests /app ./
RUN npm ci --omit=dev --workspace site --include-workspace-root

# The shared contract package (@portfolio/contract), compiled: the site and the builder import it.
FROM node:24-bookworm-slim AS contract
WORKDIR /app
COPY --from=manifests /app ./
RUN npm ci --workspace @portfolio/contract
COPY admin-api/contract admin-api/contract
RUN npm run build -w @portfolio/contract

FROM node:24-bookworm-slim
# A font with Latin and Arabic letters for the site's share cards (site/src/pages/[...lang]/og-image.png.ts).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
ENV ASTRO_TELEMETRY_DISABLED=1 NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=deps /app ./
COPY --from=contract /app/admin-api/contract/package.json admin-api/contract/package.json
COPY --from=contract /app/admin-api/contract/dist admin-api/contract/dist
COPY site site
COPY infra/builder infra/builder
COPY infra/node-flags.mjs infra/node-flags.mjs
# Astro writes its generated types next to the site while building (site/.astro).
RUN mkdir -p /var/lib/portfolio/site && chown -R node:node /var/lib/portfolio /app/site
ENV NODE_ENV=production VAR_DIR=/var/lib/portfolio BUILDER_HOST=0.0.0.0 BUILDER_PORT=3001
USER node
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "fetch('http://127.0.0.1:3001/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The allocator settings and flags of infra/node-flags.mjs (MALLOC_ENV, NODE_FLAGS.builder).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=131072
CMD ["node", "--max-semi-space-size=4", "--optimize-for-size", "infra/builder/main.mjs"]
