import type { Req, Res } from './http.js';
import { requestUrl, sendText } from './http.js';
import {
  ACCOUNTS_HOST,
  AISANDBOX_HOST,
  CONTENT_HOST,
  FLOW_HOST,
  GOOGLEVIDEO_HOST,
  LABS_HOST,
  MYACCOUNT_HOST,
  WWW_HOST,
} from './hosts.js';
import { handleAccounts } from '../hosts/accountsHost.js';
import { handleContent, handleGooglevideo } from '../hosts/contentHost.js';
import { handleFlow } from '../hosts/flowHost.js';
import { handleLabs } from '../hosts/labsHost.js';
import { handleAisandbox, handleMyAccount, handleWww } from '../hosts/miscHosts.js';
import type { SimState } from '../state/simState.js';

/** Routes a TLS request by its Host header, exactly as the real hosts are split. */
export function createRouter(state: SimState, hanging: Set<Res>): (req: Req, res: Res) => void {
  return (req, res) => {
    const url = requestUrl(req);
    const run = async (): Promise<void> => {
      switch (url.hostname) {
        case FLOW_HOST:
          return handleFlow(state, req, res, url, hanging);
        case CONTENT_HOST:
          return handleContent(state, req, res, url);
        case GOOGLEVIDEO_HOST:
          return handleGooglevideo(state, req, res, url);
        case LABS_HOST:
          return handleLabs(state, req, res, url);
        case ACCOUNTS_HOST:
          return handleAccounts(state, req, res, url);
        case MYACCOUNT_HOST:
          return handleMyAccount(state, req, res);
        case WWW_HOST:
          return handleWww(state, req, res, url);
        case AISANDBOX_HOST:
          return handleAisandbox(state, req, res, url);
        default:
          return sendText(res, 421, `flow-sim does not serve ${url.hostname}`);
      }
    };
    run().catch((error: unknown) => {
      if (!res.headersSent)
        sendText(res, 500, `flow-sim internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.destroy();
    });
  };
}
