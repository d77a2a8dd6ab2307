import { generate } from 'selfsigned';
import { SIM_HOSTS } from './hosts.js';

export interface TlsMaterial {
  key: string;
  cert: string;
  fingerprint: string;
}

/** A self-signed EC certificate whose SANs are every host the simulator answers as. */
export async function createCertificate(): Promise<TlsMaterial> {
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'flow.google.com' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 24 * 3600_000),
    notAfterDate: new Date(now.getTime() + 90 * 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...SIM_HOSTS.map((value) => ({ type: 2 as const, value })), { type: 7 as const, ip: '127.0.0.1' }],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert, fingerprint: pems.fingerprint };
}
