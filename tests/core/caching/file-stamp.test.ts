/**
 * File stamps (core/caching/file-stamp.ts): a version of a file as stat tells it, so that bytes or
 * digests kept beside one are trusted only while the file is still that version.
 */
import { renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sameVersion, stampOf } from '../../../core/caching/file-stamp.ts';
import { tempDir } from '../pipeline/support.ts';

test('a file untouched is the same version; a change in place or a rename over it is not', () => {
  const tmp = tempDir('stamp');
  try {
    const file = join(tmp.path, 'page.html');
    const at = new Date(5_000_000);
    writeFileSync(file, 'one');
    utimesSync(file, at, at);
    const stamp = stampOf(statSync(file));
    assert.ok(sameVersion(stamp, statSync(file)));

    writeFileSync(file, 'two');
    utimesSync(file, at, at);
    assert.ok(sameVersion(stamp, statSync(file)), 'same inode, size and time: nothing tells them apart');
    writeFileSync(file, 'three');
    utimesSync(file, at, at);
    assert.not.ok(sameVersion(stamp, statSync(file)), 'another size');

    writeFileSync(file, 'one');
    utimesSync(file, new Date(6_000_000), new Date(6_000_000));
    assert.not.ok(sameVersion(stamp, statSync(file)), 'another modification time');

    const other = join(tmp.path, 'next.html');
    writeFileSync(other, 'one');
    utimesSync(other, at, at);
    renameSync(other, file);
    assert.not.ok(sameVersion(stamp, statSync(file)), 'another inode');
  } finally {
    tmp.remove();
  }
});

test('no stamp is never the same version', () => {
  const stat = statSync(import.meta.filename ?? new URL(import.meta.url).pathname);
  assert.not.ok(sameVersion(null, stat));
  assert.not.ok(sameVersion(undefined, stat));
});

test.run();
