# Lakeward API / worker image (used by docker-compose.temporal.yml). The entrypoint is the `lakeward` CLI:
#   docker run lakeward:local serve --api-only      (TEMPORAL_ADDRESS and DATABASE_URL from the environment)
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Workers load this pre-built bundle instead of bundling workflows/ at every start.
RUN npx tsx workers/bundle-workflows.ts
ENV LAKEWARD_PREBUNDLED_WORKFLOWS=true \
    LAKEWARD_HOST=0.0.0.0 \
    LAKEWARD_DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8080
ENTRYPOINT ["bin/lakeward"]
CMD ["serve"]
