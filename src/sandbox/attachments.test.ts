import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttachmentStore, presentAttachment } from './attachments';

/** A store whose ids count up from 1, on a fixed origin. */
function store(bytesKept: number): AttachmentStore {
  let next = 0;
  const files = new AttachmentStore(() => String((next += 1)), bytesKept);
  files.origin = 'http://127.0.0.1:3001';
  return files;
}

test('past its bound the store drops its oldest files first, never the one just added', () => {
  const files = store(10);
  const first = files.add('c', { filename: 'a.mp3', bytes: Buffer.alloc(4) });
  const second = files.add('c', { filename: 'b.mp3', bytes: Buffer.alloc(4) });
  assert.equal(files.size, 8);
  const third = files.add('c', { filename: 'c.mp3', bytes: Buffer.alloc(4) });
  assert.equal(files.find('c', first.id, 'a.mp3'), undefined, 'the oldest went');
  assert.ok(files.find('c', second.id, 'b.mp3'));
  assert.ok(files.find('c', third.id, 'c.mp3'));
  assert.equal(files.size, 8);
  const huge = files.add('c', { filename: 'd.mp3', bytes: Buffer.alloc(20) });
  assert.ok(files.find('c', huge.id, 'd.mp3'), 'a file larger than the bound is still kept until the next one');
  assert.equal(files.size, 20);
  files.drop([huge.id, huge.id]);
  assert.equal(files.size, 0, 'dropping twice counts once');
});

test("a file's URL is on the sandbox's origin, its name escaped; its type comes from the uploader or the extension", () => {
  const files = store(100);
  const named = files.add('42', { filename: 'my song #1.MP3', bytes: Buffer.from('x') });
  assert.equal(named.url, `http://127.0.0.1:3001/attachments/42/${named.id}/my%20song%20%231.MP3`);
  assert.equal(named.contentType, 'audio/mpeg');
  assert.equal(files.add('42', { filename: 'x.bin', bytes: Buffer.alloc(1) }).contentType, null);
  assert.equal(files.add('42', { filename: 'x.mp3', contentType: 'audio/ogg', bytes: Buffer.alloc(1) }).contentType, 'audio/ogg');
  assert.deepEqual(presentAttachment(files.add('42', { filename: 'x', bytes: Buffer.alloc(3) }, true)), {
    id: '4',
    filename: 'x',
    size: 3,
    url: 'http://127.0.0.1:3001/attachments/42/4/x',
    proxy_url: 'http://127.0.0.1:3001/attachments/42/4/x',
    ephemeral: true,
  });
});
