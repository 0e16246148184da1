import { activityEndpoints } from './activity/endpoints.js';
import { auditEndpoints } from './audit/endpoints.js';
import { authEndpoints } from './auth/endpoints.js';
import { calendarEndpoints } from './calendar/endpoints.js';
import { commentEndpoints } from './comments/endpoints.js';
import { liveEventEndpoints } from './events/endpoints.js';
import { fileEndpoints } from './files/endpoints.js';
import type { AnyEndpoint } from './http/endpoint.js';
import { healthEndpoints } from './health/endpoints.js';
import { imageEndpoints } from './images/endpoints.js';
import { inviteEndpoints } from './invites/endpoints.js';
import { labelEndpoints } from './labels/endpoints.js';
import { notificationEndpoints } from './notifications/endpoints.js';
import { reportEndpoints } from './reports/endpoints.js';
import { settingsEndpoints } from './settings/endpoints.js';
import { taskEndpoints } from './tasks/endpoints.js';
import { userEndpoints } from './users/endpoints.js';
import type { AppMiddleware, AppServices } from './endpoint-deps.js';

/**
 * Every endpoint of the API, feature by feature: the router serves them in this order, and the
 * OpenAPI document, the permission matrix and the IDOR sweep are generated from them.
 */
export const apiEndpoints: ReadonlyArray<AnyEndpoint<AppServices, AppMiddleware>> = [
  ...authEndpoints,
  ...imageEndpoints,
  ...userEndpoints,
  ...taskEndpoints,
  ...labelEndpoints,
  ...reportEndpoints,
  ...healthEndpoints,
  ...inviteEndpoints,
  ...settingsEndpoints,
  ...auditEndpoints,
  ...activityEndpoints,
  ...commentEndpoints,
  ...fileEndpoints,
  ...liveEventEndpoints,
  ...notificationEndpoints,
  ...calendarEndpoints,
];
