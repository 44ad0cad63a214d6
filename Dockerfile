# One image for every service; the command picks which one runs:
#   docker run IMAGE services/reviewer/src/main.ts
# TypeScript runs directly through tsx (a runtime dependency of @convo/runtime), so there is no build step.
FROM node:24-slim

ENV NODE_ENV=production
# The gateway binds to loopback unless told otherwise; in a container it must listen on every interface.
ENV HOST=0.0.0.0
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
# --omit=dev leaves out vitest, testcontainers and typescript; every workspace is installed and linked.
# npm 11 refuses a lockfile that lacks rollup's native package for some platform (ours is made
# on machines whose registry serves only the Linux ones); `npm install` then keeps its pinned versions.
RUN (npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund) \
    && npm cache clean --force

COPY . .

# The services only read the tree; tsx's compile cache goes to /tmp, which `node` can write.
USER node

ENTRYPOINT ["node", "--import", "tsx"]
CMD ["services/gateway/src/main.ts"]
