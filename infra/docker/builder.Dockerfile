# The site builder for the production-like topology (docker-compose.yml): receives the signed
# rebuild webhook, runs `npm run build -w site` against admin-api, and switches the live folder on
# the shared `site` volume that nginx serves.
FROM node:24-bookworm-slim
ENV ASTRO_TELEMETRY_DISABLED=1
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY admin-api/package.json admin-api/
COPY admin-ui/package.json admin-ui/
COPY site/package.json site/
COPY infra/package.json infra/
RUN npm ci --workspace site --include-workspace-root && npm cache clean --force
# The site imports the API's types (type-only, erased at build time); keep the file for tooling.
COPY admin-api/src/contract.ts admin-api/src/contract.ts
COPY site site
COPY infra/builder infra/builder
# Astro writes its caches next to the site while building.
RUN mkdir -p /var/lib/portfolio/site && chown -R node:node /var/lib/portfolio /app/site
ENV NODE_ENV=production VAR_DIR=/var/lib/portfolio BUILDER_HOST=0.0.0.0 BUILDER_PORT=3001
USER node
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "fetch('http://127.0.0.1:3001/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "infra/builder/main.mjs"]
