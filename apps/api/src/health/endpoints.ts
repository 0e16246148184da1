import { z } from 'zod';
import { defineEndpoint } from '../endpoint-deps.js';
import { errorBody } from '../errors.js';
import { errors, ok } from '../openapi/responses.js';
import { READY_TIMEOUT_MS } from './service.js';

const healthResponseSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Health', description: 'The process is up.' });
const readyResponseSchema = z
  .object({ status: z.literal('ready') })
  .meta({ id: 'Ready', description: 'The process can serve requests: its database answers.' });

/**
 * Liveness (`/health`: the process answers) and readiness (`/ready`: it can serve requests, i.e.
 * its database answers and it is not shutting down). No auth, no rate limit: probes call them
 * often and carry no credentials.
 */
export const healthEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/health',
    operationId: 'getHealth',
    tags: ['Operations'],
    summary: 'Liveness',
    access: 'anyone',
    responses: { 200: ok('The process is up.', healthResponseSchema) },
    handler: ({ res }) => {
      res.set('Cache-Control', 'no-store');
      return { status: 'ok' };
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/ready',
    operationId: 'getReadiness',
    tags: ['Operations'],
    summary: 'Readiness',
    description:
      `Ready while the database answers (within ${READY_TIMEOUT_MS / 1000} s) and the server ` +
      'is not shutting down; load balancers should route to this process only then.',
    access: 'anyone',
    responses: { 200: ok('Ready.', readyResponseSchema), 503: errors[503] },
    handler: async ({ services, req, res }) => {
      // A cached "ready" from a proxy would hide an outage.
      res.set('Cache-Control', 'no-store');
      const notReady = await services.health.notReady();
      if (!notReady) return { status: 'ready' };
      if (notReady.reason) {
        req.log.warn(
          { reqId: req.id, reason: notReady.reason },
          'readiness check: database unavailable',
        );
      }
      res.status(503).json(errorBody(503, notReady.message));
      return undefined;
    },
  }),
];
