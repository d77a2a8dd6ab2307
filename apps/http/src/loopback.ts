/** Loopback binds that may run without a token: literally 127.0.0.1 or ::1 (not even `localhost`). */
export function isLoopbackBind(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === '[::1]';
}
