/** The host names the simulator answers as. */
export const FLOW_HOST = 'flow.google.com';
export const CONTENT_HOST = 'flow-content.google';
export const LABS_HOST = 'labs.google';
export const ACCOUNTS_HOST = 'accounts.google.com';
export const MYACCOUNT_HOST = 'myaccount.google.com';
export const WWW_HOST = 'www.google.com';
export const AISANDBOX_HOST = 'aisandbox-pa.googleapis.com';
/** One googlevideo edge host: video tiles' `/asb/…` redirect lands there (flow-captures.md §2). */
export const GOOGLEVIDEO_HOST = 'rr3---sn-gflow01.googlevideo.com';

export const SIM_HOSTS: readonly string[] = [
  FLOW_HOST,
  CONTENT_HOST,
  LABS_HOST,
  ACCOUNTS_HOST,
  MYACCOUNT_HOST,
  WWW_HOST,
  AISANDBOX_HOST,
  GOOGLEVIDEO_HOST,
];
