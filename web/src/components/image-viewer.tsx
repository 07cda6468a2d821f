import { useEffect, useRef } from 'preact/hooks';

export interface ImageView {
  src: string;
  alt: string;
}

/** A full-size view of a screenshot; Escape, the button or a click outside closes it. */
export function ImageViewer({ image, onClose }: { image: ImageView; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [image.src]);
  return (
    <div
      class="viewer"
      role="dialog"
      aria-modal="true"
      aria-label={image.alt}
      onClick={(e) => e.target === e.currentTarget && onClose()}
    >
      <figure>
        <img src={image.src} alt={image.alt} />
        <figcaption>
          {image.alt}{' '}
          <button ref={close} type="button" class="btn" onClick={onClose}>
            Close
          </button>
        </figcaption>
      </figure>
    </div>
  );
}
