// Uploading one audio file to the library with its progress: the raw file as the body (as the
// server's POST /music/library takes it), through XMLHttpRequest because fetch reports no upload
// progress. Same origin with the session cookie, as every other write (web/api/client.ts): the
// server's CSRF guard checks the origin the browser sends.
import { LibraryTrackSchema, type LibraryTrack } from '../../../src/shared/music';
import { apiRequestError } from '../../api/client';
import { guildApi } from '../../api/guild';

/** Sends `file`; `onProgress` hears the bytes sent so far. Rejects with an ApiRequestError for a refusal. */
export function uploadTrack(guildId: string, file: File, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<LibraryTrack> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${guildApi(guildId)}/music/library?name=${encodeURIComponent(file.name)}`);
    request.withCredentials = true;
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      if (request.status < 200 || request.status >= 300) {
        reject(apiRequestError(request.status, request.responseText || request.statusText));
        return;
      }
      try {
        resolve(LibraryTrackSchema.parse(JSON.parse(request.responseText)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    request.onerror = () => reject(new Error('The upload was cut off before the server answered. Check the connection and try again.'));
    request.onabort = () => reject(new Error('Upload cancelled.'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
