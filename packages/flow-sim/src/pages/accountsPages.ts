import { escapeHtml } from '../net/http.js';

const STYLE = `body{font-family:Roboto,Arial,sans-serif;background:#f0f4f9;margin:0}
main{max-width:440px;margin:60px auto;background:#fff;border-radius:28px;padding:36px}
h1{font-weight:400;font-size:28px}input{width:100%;font-size:16px;padding:12px;box-sizing:border-box;margin:8px 0}
.actions{display:flex;justify-content:flex-end;margin-top:24px}button{font-size:14px;padding:10px 24px;border-radius:20px;border:0;background:#0b57d0;color:#fff;cursor:pointer}
.error{color:#b3261e;min-height:20px}li{list-style:none;padding:12px;border-bottom:1px solid #ddd;cursor:pointer}`;

function page(title: string, body: string, script: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main><script>${script}</script></body></html>`;
}

/** Step 1: the identifier page. */
export function identifierPage(continueUrl: string, prefill = ''): string {
  return page(
    'Sign in - Google Accounts',
    `<h1 id="headingText">Sign in</h1><p>to continue to Flow</p>
<form id="identifier-form" onsubmit="return false"><input type="email" id="identifierId" name="identifier" autocomplete="username" value="${escapeHtml(prefill)}" aria-label="Email or phone">
<div class="error" aria-live="assertive" id="identifierError"></div>
<div class="actions"><div id="identifierNext"><button type="button">Next</button></div></div></form>`,
    `const go=()=>{const v=document.getElementById('identifierId').value.trim();
if(!/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/.test(v)){document.getElementById('identifierError').textContent="Enter a valid email";return;}
const q=new URLSearchParams({continue:${JSON.stringify(continueUrl)},identifier:v});location.assign('/v3/signin/challenge/pwd?'+q);};
document.querySelector('#identifierNext button').addEventListener('click',go);
document.getElementById('identifierId').addEventListener('keydown',e=>{if(e.key==='Enter'){e.preventDefault();go();}});`,
  );
}

/** Step 2: the password page (also used by "Confirm it's you"). */
export function passwordPage(continueUrl: string, email: string, heading = 'Welcome', purpose = 'signin'): string {
  return page(
    'Sign in - Google Accounts',
    `<h1 id="headingText">${escapeHtml(heading)}</h1><div class="profile-identifier" data-email="${escapeHtml(email)}">${escapeHtml(email)}</div>
<form onsubmit="return false"><input type="password" name="Passwd" autocomplete="current-password" aria-label="Enter your password">
<div class="error" aria-live="assertive" id="passwordError"></div>
<div class="actions"><div id="passwordNext"><button type="button">Next</button></div></div></form>`,
    `const go=async()=>{const body=new URLSearchParams({identifier:${JSON.stringify(email)},Passwd:document.querySelector('input[name=Passwd]').value,continue:${JSON.stringify(continueUrl)},purpose:${JSON.stringify(purpose)}});
const r=await fetch('/v3/signin/_/pwd',{method:'POST',body,credentials:'include'});const j=await r.json();
if(j.redirect){location.assign(j.redirect);}else{document.getElementById('passwordError').textContent=j.error||'Wrong password. Try again.';}};
document.querySelector('#passwordNext button').addEventListener('click',()=>{go();});
document.querySelector('input[name=Passwd]').addEventListener('keydown',e=>{if(e.key==='Enter'){e.preventDefault();go();}});`,
  );
}

/** The account chooser: one row per remembered account, `[data-email="<email>"]`. */
export function chooserPage(continueUrl: string, emails: string[]): string {
  const rows = emails
    .map(
      (e) =>
        `<li><div class="account-row" role="link" tabindex="0" data-email="${escapeHtml(e)}" data-identifier="${escapeHtml(e)}">${escapeHtml(e)}</div></li>`,
    )
    .join('');
  return page(
    'Choose an account - Google Accounts',
    `<h1 id="headingText">Choose an account</h1><ul>${rows}<li><div class="use-another" role="link" tabindex="0">Use another account</div></li></ul>`,
    `const c=${JSON.stringify(continueUrl)};
document.querySelectorAll('[data-email]').forEach(el=>el.addEventListener('click',()=>{location.assign('/v3/signin/_/choose?'+new URLSearchParams({continue:c,identifier:el.dataset.email}));}));
document.querySelector('.use-another').addEventListener('click',()=>{location.assign('/v3/signin/identifier?'+new URLSearchParams({continue:c}));});`,
  );
}

export function rejectedPage(): string {
  return page(
    'Couldn’t sign you in',
    `<h1 id="headingText">Couldn’t sign you in</h1><p>This browser or app may not be secure.</p>`,
    '',
  );
}
