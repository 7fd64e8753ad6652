// Upload to the library: several files chosen (or dropped) at once, sent one after another, each
// with its own progress bar and outcome in words. Files over the size limit or the room left are
// refused here with the server's own sentences, before any byte is sent.
import { CheckCircle2, CircleAlert, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { AUDIO_FORMATS, AUDIO_FORMATS_IN_WORDS, fileTooLarge, quotaExceeded, sizeInWords, type Library } from '../../../src/shared/music';
import { errorMessage, queryClient } from '../../api/client';
import { Button } from '../../components/ui/button';
import { musicKeys } from './api';
import { uploadTrack } from './upload';

/** One chosen file and how its upload goes. */
interface UploadItem {
  key: number;
  file: File;
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'failed';
  message?: string;
}

/** What the file input offers (the server sniffs the bytes whatever the name). */
const ACCEPT = ['audio/*', ...AUDIO_FORMATS.map((format) => `.${format}`)].join(',');

let nextKey = 0;

/** The upload button, the drop area and the per-file list. */
export function UploadPanel({ guildId, library }: { guildId: string; library: Library }) {
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<UploadItem[]>([]);
  const [dragging, setDragging] = useState(false);
  const running = useRef(false);
  const queue = useRef<UploadItem[]>([]);
  const change = (key: number, patch: Partial<UploadItem>) => setItems((all) => all.map((item) => (item.key === key ? { ...item, ...patch } : item)));

  /** Sends the waiting files one at a time; files added meanwhile join the line. */
  const drain = async () => {
    if (running.current) return;
    running.current = true;
    try {
      for (let item = queue.current.shift(); item; item = queue.current.shift()) {
        const { key, file } = item;
        const fresh = queryClient.getQueryData<Library>(musicKeys.library(guildId)) ?? library;
        if (fresh.usedBytes + file.size > fresh.quotaBytes) {
          change(key, { state: 'failed', message: quotaExceeded(fresh.usedBytes, fresh.quotaBytes, file.size) });
          continue;
        }
        change(key, { state: 'sending' });
        try {
          const track = await uploadTrack(guildId, file, (sent) => change(key, { sent }));
          change(key, { state: 'done', sent: file.size, message: `Added as “${track.title}”.` });
          await queryClient.invalidateQueries({ queryKey: musicKeys.library(guildId) });
        } catch (error) {
          change(key, { state: 'failed', message: errorMessage(error) });
        }
      }
    } finally {
      running.current = false;
    }
  };

  const choose = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const chosen = [...files].map((file): UploadItem => {
      const key = (nextKey += 1);
      if (file.size > library.maxFileBytes) return { key, file, sent: 0, state: 'failed', message: fileTooLarge(library.maxFileBytes) };
      return { key, file, sent: 0, state: 'waiting' };
    });
    setItems((all) => [...all.filter((item) => item.state === 'waiting' || item.state === 'sending'), ...chosen]);
    queue.current.push(...chosen.filter((item) => item.state === 'waiting'));
    void drain();
  };

  return (
    <div className="stack-sm">
      <div
        className={`music-drop${dragging ? ' music-drop-active' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          choose(event.dataTransfer.files);
        }}
      >
        <Button onClick={() => input.current?.click()}>
          <Upload size={16} aria-hidden="true" /> Upload audio
        </Button>
        <p className="muted small">
          Or drop files here. {AUDIO_FORMATS_IN_WORDS}, up to {sizeInWords(library.maxFileBytes)} each.
        </p>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          aria-label="Audio files to upload"
          data-testid="music-upload-input"
          onChange={(event) => {
            choose(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      {items.length > 0 ? (
        <ul className="music-list" aria-label="Uploads" aria-live="polite">
          {items.map((item) => (
            <li key={item.key} className="music-upload">
              <div className="row row-between">
                <span className="truncate small strong">{item.file.name}</span>
                <span className="muted small">{sizeInWords(item.file.size)}</span>
              </div>
              {item.state === 'sending' || item.state === 'waiting' ? (
                <progress className="progress" value={item.sent} max={Math.max(item.file.size, 1)} aria-label={`Uploading ${item.file.name}`} />
              ) : null}
              {item.state === 'waiting' ? <p className="muted small">Waiting…</p> : null}
              {item.state === 'sending' ? <p className="muted small">{Math.round((item.sent / Math.max(item.file.size, 1)) * 100)} % sent</p> : null}
              {item.state === 'done' ? (
                <p className="success-text small">
                  <CheckCircle2 size={14} aria-hidden="true" /> {item.message}
                </p>
              ) : null}
              {item.state === 'failed' ? (
                <p className="error-text small">
                  <CircleAlert size={14} aria-hidden="true" /> {item.file.name} was not added: {item.message}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
