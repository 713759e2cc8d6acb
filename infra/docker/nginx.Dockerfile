# nginx in front of everything (docker-compose.yml): Debian's nginx with the brotli modules, the
# same packages infra/test/nginx.spec.mjs runs the config with.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx-light libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default
COPY infra/nginx/nginx.conf /etc/nginx/nginx.conf
# resolver.conf names the DNS server that finds admin-api (Docker's); mount another one over it elsewhere.
COPY infra/nginx/site.conf infra/nginx/security-headers.conf infra/nginx/proxy.conf infra/nginx/resolver.conf infra/nginx/preparing.html /etc/nginx/portfolio/
EXPOSE 8080
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
