# Manna as one container image: the site, the API and the back office, on port 8080, keeping
# everything it writes (the SQLite database unless DATABASE_URL is set, CVs and images, backups)
# under /data.
#
#   docker build -t manna .                       (or: podman build -t manna .)
#   docker run -d -p 8080:8080 -v manna-data:/data \
#     -e PUBLIC_URL=https://www.example.com -e SECRET="$(openssl rand -base64 48)" manna
#   docker logs <container>                       the one-time address that creates the owner
#
# compose.yaml runs it with Caddy (HTTPS), PostgreSQL and Redis; README.md "Run it in containers".
#
# BASE is the image the server runs on, BUILD_BASE the one it is built on (it needs npm and Node's
# headers, as the official image has them). Machines that reach no image registry make both from
# Debian's packages and the npm registry: scripts/container-base.sh.
ARG BASE=docker.io/library/node:24-slim
ARG BUILD_BASE=docker.io/library/node:24-slim

FROM ${BUILD_BASE} AS build
# better-sqlite3 is compiled when no prebuilt binary can be downloaded; Chromium draws the app's
# PNG icons from public/icon.svg (scripts/build-pwa.mjs)
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ chromium \
  && rm -rf /var/lib/apt/lists/*
# node-gyp builds against the headers beside node instead of downloading them
ENV npm_config_nodedir=/usr/local \
  npm_config_update_notifier=false \
  npm_config_fund=false \
  npm_config_audit=false
WORKDIR /app
COPY package.json package-lock.json ./
# Behind a proxy that re-signs TLS (a company's, or this project's CI), pass its certificate
# authorities as a build secret: --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt
RUN --mount=type=secret,id=ca \
  if [ -s /run/secrets/ca ]; then export npm_config_cafile=/run/secrets/ca; fi \
  && npm ci --loglevel=error
COPY . .
# the site (dist/), then the server compiled with only the packages it loads at run time
RUN npm run build \
  && node scripts/container-server.mjs /app/image --root /app \
  && cp -a dist /app/image/dist

FROM ${BASE}
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  DATA_DIR=/data \
  DIST_DIR=/app/dist
# the server runs as this account, which owns /data and nothing else
RUN groupadd --gid 10001 manna \
  && useradd --uid 10001 --gid manna --home-dir /data --no-create-home --no-log-init --shell /usr/sbin/nologin manna \
  && mkdir -m 0700 /data \
  && chown manna:manna /data
WORKDIR /app
COPY --from=build /app/image /app
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080
# /api/ready answers 200 once the database, its migrations and the file store are usable
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 8080}/api/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: the server finishes the requests in flight (up to 10 s), then exits
STOPSIGNAL SIGTERM
CMD ["node", "server/index.js"]
