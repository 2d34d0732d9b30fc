// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { CopyButton } from './CopyButton.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

it('copies the text and says Copied! for one second, then reverts', () => {
  vi.useFakeTimers();
  const writeText = vi.fn().mockResolvedValue(undefined);
  // The clipboard is the browser's, outside our control: a stand-in records what was copied.
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  render(<CopyButton text="howl_key" />);
  fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
  expect(writeText).toHaveBeenCalledWith('howl_key');
  expect(screen.getByRole('button')).toHaveTextContent('Copied!');
  act(() => vi.advanceTimersByTime(999));
  expect(screen.getByRole('button')).toHaveTextContent('Copied!');
  act(() => vi.advanceTimersByTime(1));
  expect(screen.getByRole('button')).toHaveTextContent('Copy');
});
