import {
  AxiosError,
  AxiosHeaders,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { api } from '../lib/api-client';

export interface RecordedRequest {
  method: string;
  url: string;
  params: Record<string, unknown> | undefined;
  responseType: string | undefined;
  /** The JSON body as sent, parsed back. */
  body: unknown;
}

type Reply = { status: number; data: unknown } | Promise<{ status: number; data: unknown }>;

/**
 * Replaces the HTTP layer of the app's axios instance (unit tests only): every request is
 * recorded and answered by `respond`; 4xx and 5xx answers reject the way axios does.
 */
export function stubApi(respond: (request: RecordedRequest) => Reply) {
  const requests: RecordedRequest[] = [];
  const original = api.defaults.adapter;
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const request: RecordedRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      params: config.params as Record<string, unknown> | undefined,
      responseType: config.responseType,
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
    };
    requests.push(request);
    const { status, data } = await respond(request);
    const response: AxiosResponse = {
      data,
      status,
      statusText: String(status),
      headers: new AxiosHeaders(),
      config,
    };
    if (status >= 400) {
      throw new AxiosError(
        `Request failed with status code ${status}`,
        status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
        config,
        null,
        response,
      );
    }
    return response;
  };
  api.defaults.adapter = adapter;
  return {
    requests,
    restore: () => {
      api.defaults.adapter = original;
    },
  };
}
