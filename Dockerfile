# One image for every service; the command picks which one runs:
#   docker run IMAGE services/reviewer/dist/main.js
# Two stages: the first installs every dependency and compiles the TypeScript (`npm run build`,
# scripts/build/compile.ts), the second keeps the compiled JavaScript and the production
# dependencies only: no TypeScript, no tsx, no test tools.
FROM node:24-slim AS build
WORKDIR /app

# Manifests first: the dependency layer is rebuilt only when they change, not on every source edit.
COPY package.json package-lock.json ./
COPY shared/contract/package.json shared/contract/
COPY shared/runtime/package.json shared/runtime/
COPY shared/text/package.json shared/text/
COPY shared/agent-kit/package.json shared/agent-kit/
COPY shared/forms/package.json shared/forms/
COPY shared/faq/package.json shared/faq/
COPY shared/workbench/package.json shared/workbench/
COPY services/gateway/package.json services/gateway/
COPY services/greeter/package.json services/greeter/
COPY services/architect/package.json services/architect/
COPY services/interviewer/package.json services/interviewer/
COPY services/reviewer/package.json services/reviewer/
COPY services/checker/package.json services/checker/
COPY services/auditor/package.json services/auditor/
COPY services/planner/package.json services/planner/
COPY services/search/package.json services/search/
COPY services/workbench/package.json services/workbench/
COPY packages/client/package.json packages/client/
# npm 11 refuses a lockfile that lacks rollup's native package for some platform (ours is made
# on machines whose registry serves only the Linux ones); `npm install` then keeps its pinned versions.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund

COPY . .
# The JavaScript, then the development dependencies out of node_modules (every workspace stays linked).
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-slim

ENV NODE_ENV=production
# The gateway binds to loopback unless told otherwise; in a container it must listen on every interface.
ENV HOST=0.0.0.0
WORKDIR /app

COPY --from=build /app /app

# The services only read the tree.
USER node

# `compiled`: every workspace package resolves to its dist/ (the package's `exports`); small young-generation
# semi-spaces: SERVICE_NODE_FLAGS in scripts/build/compile.ts says why (a test keeps the two equal).
ENTRYPOINT ["node", "--conditions=compiled", "--max-semi-space-size=4"]
CMD ["services/gateway/dist/main.js"]
