# admin-api image for the production-like topology (docker-compose.yml): the API plus the admin
# overlay bundle it serves at /admin-ui/.

# Only the npm manifests (the lockfile, .npmrc, every workspace's package.json, which `npm ci`
# checks against the lockfile): the install below is redone only when dependencies change, and a
# new workspace needs no new line here.
FROM node:24-bookworm-slim AS manifests
WORKDIR /app
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -type d -empty -delete

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY --from=manifests /app ./
RUN npm ci --workspace @portfolio/contract --workspace admin-api --workspace admin-ui --include-workspace-root
# admin-api/ holds the shared contract package (admin-api/contract) too.
COPY admin-api admin-api
COPY admin-ui admin-ui
RUN npm run build -w @portfolio/contract && npm run build -w admin-api && npm run build -w admin-ui \
  && npm prune --omit=dev --workspace admin-api --include-workspace-root

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 VAR_DIR=/var/lib/portfolio
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/admin-api/package.json admin-api/package.json
COPY --from=build /app/admin-api/dist admin-api/dist
COPY --from=build /app/admin-api/contract/package.json admin-api/contract/package.json
COPY --from=build /app/admin-api/contract/dist admin-api/contract/dist
COPY --from=build /app/admin-ui/dist admin-ui/dist
RUN mkdir -p /var/lib/portfolio && chown node:node /var/lib/portfolio
USER node
EXPOSE 3000
# The start period covers waiting for MySQL (DATABASE_WAIT_SECONDS, 60) and the first migrations.
HEALTHCHECK --interval=10s --timeout=3s --retries=5 --start-period=90s CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The flags of infra/node-flags.mjs (NODE_FLAGS.api).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "admin-api/dist/src/main.js"]
