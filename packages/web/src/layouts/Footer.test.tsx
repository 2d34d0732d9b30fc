// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.js';
import { Footer } from './PublicLayout.js';

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
});

it('links to the source repository set at build time, in a new tab', () => {
  vi.stubEnv('VITE_SOURCE_URL', 'https://github.com/example/howl');
  renderWithProviders(<Footer />);
  const link = within(screen.getByRole('navigation', { name: 'Footer' })).getByRole('link', { name: 'Source code' });
  expect(link).toHaveAttribute('href', 'https://github.com/example/howl');
  expect(link).toHaveAttribute('target', '_blank');
});

it('shows no source link when none is set', () => {
  vi.stubEnv('VITE_SOURCE_URL', '');
  renderWithProviders(<Footer />);
  const footer = screen.getByRole('navigation', { name: 'Footer' });
  expect(within(footer).queryByRole('link', { name: 'Source code' })).toBeNull();
  expect(
    within(footer)
      .getAllByRole('link')
      .map((l) => l.textContent),
  ).toEqual(['Terms of service', 'Privacy policy', 'Blog: Howl and Godot 4', 'Contact']);
});
