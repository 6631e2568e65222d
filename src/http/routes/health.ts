import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { healthOf } from '../../core/diagnostics/health.js';
import { PUBLIC } from '../route-config.js';

/** `GET /healthz`: 200 when settings, host database and cache answer, else 503; for load balancers and container health checks. */
export function registerHealthRoute(app: FastifyInstance, context: ServiceContext): void {
  app.get('/healthz', { config: { dus: PUBLIC } }, async (_request, reply) => {
    const report = await healthOf(context);
    return reply.status(report.status === 'ok' ? 200 : 503).send(report);
  });
}
