// App chrome: header with credits, snackbar toasts, consent bar, promo dialog, static views.
import { app, boot, formatNumber, h, icon, t } from './dom.js';
import { overlayContainer } from './overlay.js';
import { rpc } from './wire.js';

export function header() {
  const amount = h('span', { class: 'credits-amount' }, formatNumber(app.credits));
  app.listeners.add((e) => {
    if (e === 'credits') amount.textContent = formatNumber(app.credits);
  });
  const title = boot.project ? projectTitle() : h('span', { class: 'app-title' }, 'Flow');
  return h(
    'flow-app-header',
    {},
    h('a', { class: 'home-link', href: '/' }, icon('movie_filter'), 'Flow'),
    title,
    h('span', { class: 'spacer' }),
    h(
      'button',
      { class: 'credits-button', type: 'button', 'aria-label': t('credits') },
      icon('toll'),
      amount,
      ' ',
      h('span', { class: 'credits-unit' }, t('credits')),
    ),
    h('button', { class: 'account-button', type: 'button', 'data-email': boot.email ?? '' }, icon('account_circle')),
  );
}

function projectTitle() {
  const btn = h('button', { class: 'project-title', type: 'button', 'aria-label': t('rename') }, boot.project.title);
  btn.addEventListener('click', () => {
    const input = h('input', { class: 'project-title-input', type: 'text', value: btn.textContent });
    btn.replaceWith(input);
    input.focus();
    input.select();
    input.addEventListener('keydown', async (e) => {
      if (e.key === 'Escape') input.replaceWith(btn);
      if (e.key !== 'Enter') return;
      try {
        const reply = await rpc('o8DA4', [boot.project.id, input.value]);
        const title = boot.variants.projectReply === 'wrapped' ? reply[0][0] : reply[0];
        btn.textContent = title;
      } catch {
        snackbar(t('somethingWrong'));
      }
      input.replaceWith(btn);
    });
  });
  return btn;
}

export function snackbar(text) {
  const el = h(
    'div',
    { class: 'mat-mdc-snack-bar-container flow-toast', role: 'status', 'aria-live': 'polite' },
    h('div', { class: 'mat-mdc-snack-bar-label' }, text),
  );
  overlayContainer().append(el);
  setTimeout(() => el.remove(), 4000);
}

/** Google's consent bar (fixed, z-index 1000) over the composer. */
export function consentBar() {
  if (boot.consentBar === 'none') return;
  const done = () => {
    document.cookie = `SOCS=CAI${Date.now().toString(36)}; domain=.google.com; path=/; secure; max-age=33696000; samesite=lax`;
    bar.remove();
  };
  // Accept comes before reject in DOM order (flow-captures.md §9).
  const buttons = [
    h(
      'button',
      { class: 'glue-cookie-notification-bar__accept', type: 'button', onclick: done },
      boot.consentBar === 'notice' ? t('ok') : t('accept'),
    ),
  ];
  if (boot.consentBar === 'reject')
    buttons.push(
      h('button', { class: 'glue-cookie-notification-bar__reject', type: 'button', onclick: done }, t('reject')),
    );
  const bar = h(
    'div',
    { id: 'glue-cookie-notification-bar-1', class: 'glue-cookie-notification-bar', role: 'region' },
    h('p', { class: 'glue-cookie-notification-bar__text' }, t('cookieText')),
    ...buttons,
  );
  document.body.append(bar);
}

/** The "Get started" changelog modal a little after load. */
export function promoDialog() {
  if (!boot.promoDialog) return;
  setTimeout(() => {
    const backdrop = h('div', { class: 'cdk-overlay-backdrop cdk-overlay-dark-backdrop cdk-overlay-backdrop-showing' });
    const close = () => {
      backdrop.remove();
      pane.remove();
      document.removeEventListener('keydown', onKey, true);
    };
    const onKey = (e) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close();
      }
    };
    const pane = h(
      'div',
      { class: 'cdk-overlay-pane promo-pane' },
      h(
        'mat-dialog-container',
        { class: 'mat-mdc-dialog-container', role: 'dialog', 'aria-modal': 'true' },
        h(
          'button',
          { class: 'dialog-close-button', type: 'button', 'aria-label': t('close'), onclick: close },
          icon('close'),
        ),
        h('h2', {}, t('getStarted')),
        h('p', {}, t('getStartedBody')),
      ),
    );
    overlayContainer().append(backdrop, pane);
    document.addEventListener('keydown', onKey, true);
  }, 400);
}

export function aboutView() {
  const cta = h('button', { class: 'cta-button flow-button variant-primary', type: 'button' }, t('aboutCta'));
  cta.addEventListener('click', () => {
    const cont = 'https://flow.google.com/';
    const path = boot.identityRecheck ? '/v3/signin/confirmidentifier' : '/ServiceLogin';
    location.assign(`https://accounts.google.com${path}?${new URLSearchParams({ continue: cont })}`);
  });
  const filler = Array.from({ length: 17 }, (_, i) =>
    h('button', { class: 'flow-button variant-primary', type: 'button' }, `${t('aboutCta')} ${i + 1}`),
  );
  return h('flow-about-page', {}, h('h1', {}, t('aboutTitle')), cta, h('div', { class: 'about-more' }, ...filler));
}

export function messageView(tag, text) {
  return h(tag, { class: 'flow-message-page' }, h('a', { href: '/' }, 'Flow'), h('p', {}, text));
}
