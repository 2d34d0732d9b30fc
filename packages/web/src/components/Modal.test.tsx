// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Modal } from './Modal.js';

afterEach(cleanup);

/** A row action that opens a dialog by state, as the dashboard's actions do. */
function Row({ withField }: { withField: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal open={open} onOpenChange={setOpen} title="A dialog">
        {withField ? <input aria-label="New password" /> : null}
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('gives focus back to what opened it, on Escape and on Cancel', async () => {
    const user = userEvent.setup();
    render(<Row withField={false} />);
    const open = screen.getByRole('button', { name: 'Open' });
    await user.click(open);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();

    await user.click(open);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(open).toHaveFocus();
  });

  it("puts focus in a form's first field when it opens, so Enter does not close it", async () => {
    const user = userEvent.setup();
    render(<Row withField />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('textbox', { name: 'New password' })).toHaveFocus();
  });
});
