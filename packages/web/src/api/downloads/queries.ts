import { DOWNLOAD_PATH, pluginDownloadsResponse } from '@howl/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../client.js';
import { downloadKeys } from './keys.js';

/** The zips the build packed, with their sizes (`/download/downloads.json`); fixed until the next build. */
export function usePluginDownloads() {
  return useQuery({
    queryKey: downloadKeys.all,
    queryFn: () => request(pluginDownloadsResponse, 'GET', `${DOWNLOAD_PATH}/downloads.json`),
    staleTime: Infinity,
    retry: false,
  });
}
