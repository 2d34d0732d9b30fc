import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type ReactNode } from 'react';

/** An accessible modal (focus trapped, Escape closes) with a title and the page's actions. */
export function Modal({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
}) {
  // Opened by state, not by a Dialog.Trigger, so Radix has nothing to give focus back to on close.
  const openedFrom = useRef<HTMLElement | null>(null);
  const content = useRef<HTMLDivElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content
          ref={content}
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            openedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            // A form's first field, not the Close button; a dialog without fields keeps Radix's choice.
            const field = content.current?.querySelector<HTMLElement>('input, textarea, select');
            if (field) {
              event.preventDefault();
              field.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            const from = openedFrom.current;
            if (from?.isConnected) {
              event.preventDefault();
              from.focus();
            }
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[85vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <Dialog.Title className="min-w-0 text-lg font-semibold [overflow-wrap:anywhere] text-ink">
              {title}
            </Dialog.Title>
            <Dialog.Close aria-label="Close" className="rounded-md p-1 text-slate-500 hover:bg-slate-100">
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
