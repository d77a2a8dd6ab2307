export {
  createGflowHttpApp,
  MESSAGES_PATH,
  type GflowHttpApp,
  type GflowHttpAppOptions,
  type HttpTransportKind,
} from './createGflowHttpApp.js';
export {
  startGflowHttpServer,
  type GflowHttpServer,
  type StartGflowHttpServerOptions,
} from './startGflowHttpServer.js';
export { bearerTokenOf, tokensMatch, BEARER_CHALLENGE } from './bearerAuth.js';
export { isLoopbackBind } from './loopback.js';
export { SseServerTransport } from './sseServerTransport.js';
export { readCredentialsToken } from './credentialsFile.js';
export { homeIdOf } from './gallery/galleryRoutes.js';
