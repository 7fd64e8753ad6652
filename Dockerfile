# syntax=docker/dockerfile:1
# Multi-stage build: compile the native sqlite3 addon and both bundles in a full image,
# then run them from a slim image as the unprivileged `node` user.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# node-gyp builds sqlite3 from source (no prebuilt binaries are downloaded).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json esbuild.config.mjs ./
COPY src ./src
COPY web ./web
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# No variable is needed for the offline demo (`docker run -p 3000:3000 IMAGE`): without DISCORD_TOKEN
# the sandbox Discord runs in the process and browsers reach it under /_discord on PORT; PUBLIC_URL
# defaults to http://localhost:$PORT. The server listens on every interface of the container.
# MALLOC_ARENA_MAX=2: glibc keeps two malloc arenas instead of one per busy thread (the store
# writer, SQLite's and V8's helper threads), about 20 MB less memory after a million messages.
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=sqlite:/app/data/bot.sqlite \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# The music player decodes members' files and streams with Debian's ffmpeg, spawned at run time.
# The welcome card draws its text with DejaVu (@napi-rs/canvas reads the system fonts; the slim image has none of its own).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The V8 flags are npm start's (package.json): a smaller young generation and a slower-growing heap keep
# RSS under 200 MB at 20,000 messages/s without losing throughput (scripts/bench/leveling-throughput.ts rss).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=25", "dist/server/main.js"]
