// Page half of the guard, part 3 (see page-guard-script.ts): `window.focus()`, `print()` and
// fullscreen requests do nothing, permission prompts (notifications, geolocation, camera and
// microphone, screen capture, device choosers, clipboard reads, file pickers, credentials,
// payment, ...) are denied at once as if the person said no; each is reported. Serialised with
// toString(): uses nothing from this module.
import type { PagePost } from './page-guard-script.ts';

export function promptGuardMain(post: PagePost): void {
  const w = window as any;
  w.focus = function focus() {
    post({ kind: 'focus' });
  };
  w.print = function print() {
    post({ kind: 'print' });
  };
  const refuse = (kind: string, permission?: string) => {
    post(permission === undefined ? { kind } : { kind, permission });
  };
  const notAllowed = (what: string) =>
    new DOMException(`${what} is not available in a Mimo task tab`, 'NotAllowedError');

  for (const proto of [
    Element.prototype,
    (w.HTMLVideoElement as typeof HTMLVideoElement | undefined)?.prototype,
  ].filter(Boolean) as any[]) {
    for (const method of [
      'requestFullscreen',
      'webkitRequestFullscreen',
      'webkitRequestFullScreen',
      'webkitEnterFullscreen',
    ]) {
      if (typeof proto[method] !== 'function') continue;
      proto[method] = function requestFullscreen() {
        refuse('fullscreen');
        return Promise.reject(new TypeError('Fullscreen is not available in a Mimo task tab'));
      };
    }
  }

  if (w.Notification) {
    const requestPermission = (callback?: (permission: string) => void) => {
      refuse('permission', 'notifications');
      if (typeof callback === 'function') setTimeout(() => callback('denied'), 0);
      return Promise.resolve('denied');
    };
    try {
      Object.defineProperty(w.Notification, 'requestPermission', {
        value: requestPermission,
        configurable: true,
        writable: true,
      });
    } catch {
      // leave it
    }
  }
  const geo = navigator.geolocation as any;
  if (geo) {
    const denied = (error?: (e: unknown) => void) => {
      refuse('permission', 'geolocation');
      if (typeof error === 'function') {
        setTimeout(
          () =>
            error({
              code: 1,
              message: 'User denied Geolocation',
              PERMISSION_DENIED: 1,
              POSITION_UNAVAILABLE: 2,
              TIMEOUT: 3,
            }),
          0,
        );
      }
    };
    geo.getCurrentPosition = (_ok: unknown, error?: (e: unknown) => void) => denied(error);
    geo.watchPosition = (_ok: unknown, error?: (e: unknown) => void) => (denied(error), 0);
  }
  const rejecting = (owner: any, method: string, permission: string) => {
    if (!owner || typeof owner[method] !== 'function') return;
    owner[method] = function denied() {
      refuse('permission', permission);
      return Promise.reject(notAllowed(permission));
    };
  };
  const nav = navigator as any;
  rejecting(nav.mediaDevices, 'getUserMedia', 'camera/microphone');
  rejecting(nav.mediaDevices, 'getDisplayMedia', 'screen capture');
  rejecting(nav.clipboard, 'read', 'clipboard read');
  rejecting(nav.clipboard, 'readText', 'clipboard read');
  rejecting(nav.bluetooth, 'requestDevice', 'bluetooth');
  rejecting(nav.usb, 'requestDevice', 'usb');
  rejecting(nav.serial, 'requestPort', 'serial');
  rejecting(nav.hid, 'requestDevice', 'hid');
  rejecting(nav, 'requestMIDIAccess', 'midi');
  rejecting(w, 'showOpenFilePicker', 'file picker');
  rejecting(w, 'showSaveFilePicker', 'file picker');
  rejecting(w, 'showDirectoryPicker', 'file picker');
  rejecting(nav.credentials, 'get', 'credentials (passkeys, passwords, identity)');
  rejecting(nav.credentials, 'create', 'credentials (passkeys, passwords, identity)');
  rejecting(w.PaymentRequest?.prototype, 'show', 'payment');
  rejecting(w.EyeDropper?.prototype, 'open', 'eye dropper');
  rejecting(w, 'queryLocalFonts', 'local fonts');
  rejecting(w, 'getScreenDetails', 'window management');
  rejecting(w.IdleDetector, 'requestPermission', 'idle detection');
  rejecting(document, 'requestStorageAccess', 'storage access');
  rejecting(Element.prototype, 'requestPointerLock', 'pointer lock');
  if (typeof nav.getUserMedia === 'function') {
    nav.getUserMedia = (_c: unknown, _ok: unknown, error?: (e: unknown) => void) => {
      refuse('permission', 'camera/microphone');
      if (typeof error === 'function') setTimeout(() => error(notAllowed('camera/microphone')), 0);
    };
  }
}
