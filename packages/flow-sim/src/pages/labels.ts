import type { SimLocale } from '../types.js';

/** UI strings per locale. The driver must never read these (flow-wire §4); switch locale to prove it. */
const EN = {
  image: 'Image', video: 'Video', frames: 'Frames', ingredients: 'Ingredients', start: 'Start', end: 'End',
  placeholder: 'What do you want to create?', settingsTrigger: 'Settings trigger', submit: 'Create',
  insufficient: 'Insufficient credits', upload: 'Upload', newCollection: 'New collection', createCharacter: 'Create character',
  newScene: 'New scene', addToPrompt: 'Add to prompt', close: 'Close', search: 'Search for assets', credits: 'credits',
  costLine: 'Generating will use {n} credits', rightsTitle: 'Rights to use this image',
  rightsBody: 'Confirm you have the rights to use this image and that it follows our policies.', cancel: 'Cancel', agree: 'I agree',
  failed: 'Failed — You have not been charged for this generation', policy: 'This prompt might violate our policies.',
  newProject: 'New project', projects: 'Your projects', all: 'All', images: 'Images', videos: 'Videos', voices: 'Voices',
  characters: 'Characters', avatars: 'Avatars', uploads: 'Uploads', agent: 'Agent', download: 'Download',
  getStarted: 'Get started with Flow', getStartedBody: 'See what is new in this release.', cookieText: 'Google uses cookies to deliver its services.',
  reject: 'Reject all', accept: 'Accept all', ok: 'OK, got it', aboutTitle: 'Flow', aboutCta: 'Create with Flow',
  notFound: 'This project doesn’t exist or you don’t have access to it.', unavailable: 'Flow isn’t available for your account.',
  somethingWrong: 'Something went wrong. Try again.', uploaded: 'Upload complete', instructions: 'Instructions',
  agentPlaceholder: 'Tell the agent what to make', approve: 'Approve', always: 'Always allow', rejectGate: 'Reject',
  gate: 'This will use {n} credits. Continue?', seconds: '{n}s', rename: 'Rename project',
  dl1k: '1K (Original size)', dl2k: '2K (Upscaled)', dl4k: '4K (Upscaled)', dlUpgrade: 'Upgrade', dlGif: '270p Animated GIF',
  dl720: '720p (Original size)', dl1080: '1080p (Upscaled)', detailClose: 'Back to project',
};

type Labels = typeof EN;

const DE: Labels = {
  ...EN,
  image: 'Bild', video: 'Video', frames: 'Einzelbilder', ingredients: 'Zutaten', start: 'Anfang', end: 'Ende',
  placeholder: 'Was möchtest du erstellen?', settingsTrigger: 'Einstellungen öffnen', submit: 'Erstellen',
  insufficient: 'Nicht genügend Credits', upload: 'Hochladen', newCollection: 'Neue Sammlung', createCharacter: 'Figur erstellen',
  newScene: 'Neue Szene', addToPrompt: 'Zum Prompt hinzufügen', close: 'Schließen', search: 'Assets suchen', credits: 'Credits',
  costLine: 'Für die Generierung werden {n} Credits verwendet', rightsTitle: 'Nutzungsrechte für dieses Bild',
  rightsBody: 'Bestätige, dass du die Rechte an diesem Bild hast.', cancel: 'Abbrechen', agree: 'Ich stimme zu',
  failed: 'Fehlgeschlagen – Diese Generierung wurde dir nicht berechnet', policy: 'Dieser Prompt verstößt möglicherweise gegen unsere Richtlinien.',
  newProject: 'Neues Projekt', projects: 'Deine Projekte', all: 'Alle', images: 'Bilder', videos: 'Videos', voices: 'Stimmen',
  characters: 'Figuren', avatars: 'Avatare', uploads: 'Uploads', agent: 'Agent', download: 'Herunterladen',
  getStarted: 'Erste Schritte mit Flow', getStartedBody: 'Das ist neu in dieser Version.', cookieText: 'Google verwendet Cookies.',
  reject: 'Alle ablehnen', accept: 'Alle akzeptieren', ok: 'Ok', aboutTitle: 'Flow', aboutCta: 'Mit Flow erstellen',
  notFound: 'Dieses Projekt existiert nicht oder du hast keinen Zugriff.', unavailable: 'Flow ist für dein Konto nicht verfügbar.',
  somethingWrong: 'Etwas ist schiefgelaufen. Versuch es noch einmal.', uploaded: 'Hochgeladen', instructions: 'Anweisungen',
  agentPlaceholder: 'Sag dem Agenten, was er erstellen soll', approve: 'Zustimmen', always: 'Immer erlauben', rejectGate: 'Ablehnen',
  gate: 'Dafür werden {n} Credits verwendet. Fortfahren?', seconds: '{n} Sek.', rename: 'Projekt umbenennen',
  dl1k: '1K (Originalgröße)', dl2k: '2K (Hochskaliert)', dl4k: '4K (Hochskaliert)', dlUpgrade: 'Upgraden', dlGif: '270p animiertes GIF',
  dl720: '720p (Originalgröße)', dl1080: '1080p (Hochskaliert)', detailClose: 'Zurück zum Projekt',
};

const VI: Labels = {
  ...EN,
  image: 'Hình ảnh', video: 'Video', frames: 'Khung hình', ingredients: 'Thành phần', start: 'Bắt đầu', end: 'Kết thúc',
  placeholder: 'Bạn muốn tạo gì?', settingsTrigger: 'Mở cài đặt', submit: 'Tạo', insufficient: 'Không đủ tín dụng',
  upload: 'Tải lên', addToPrompt: 'Thêm vào câu lệnh', close: 'Đóng', credits: 'tín dụng',
  costLine: 'Quá trình tạo sẽ dùng {n} tín dụng', cancel: 'Hủy', agree: 'Tôi đồng ý', seconds: '{n} giây',
  failed: 'Không thành công — Bạn không bị tính phí cho lần tạo này', newProject: 'Dự án mới',
  dl1k: '1K (Kích thước gốc)', dl2k: '2K (Đã nâng cấp)', dl4k: '4K (Đã nâng cấp)', dlUpgrade: 'Nâng cấp', dlGif: 'GIF động 270p',
  dl720: '720p (Kích thước gốc)', dl1080: '1080p (Đã nâng cấp)',
};

/** Portuguese (Brazil): the download menu's labels as measured ("2K (Aprimorada)", "Fazer upgrade", flow-captures.md §8). */
const PT: Labels = {
  ...EN,
  image: 'Imagem', video: 'Vídeo', frames: 'Frames', ingredients: 'Ingredientes', start: 'Início', end: 'Fim',
  placeholder: 'O que você quer criar?', submit: 'Criar', download: 'Baixar', close: 'Fechar', seconds: '{n} s',
  costLine: 'A geração vai usar {n} créditos', credits: 'créditos', reject: 'Rejeitar tudo', accept: 'Aceitar tudo',
  dl1k: '1K (Tamanho original)', dl2k: '2K (Aprimorada)', dl4k: '4K (Aprimorada)', dlUpgrade: 'Fazer upgrade', dlGif: 'GIF animado 270p',
  dl720: '720p (Tamanho original)', dl1080: '1080p (Aprimorado)', detailClose: 'Voltar ao projeto',
};

export function labelsFor(locale: SimLocale): Labels {
  switch (locale) {
    case 'de-DE':
      return DE;
    case 'vi-VN':
      return VI;
    case 'pt-BR':
      return PT;
    case 'en-US':
      return EN;
  }
}
