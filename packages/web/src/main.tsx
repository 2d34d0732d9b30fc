import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.js';
import { createQueryClient } from './api/query-client.js';
import { ScrollToHash } from './components/ScrollToHash.js';
import './index.css';

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <ScrollToHash />
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
