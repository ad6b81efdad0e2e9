/**
 * An application's code that does not load is explained with the file and line to fix: Node's own
 * messages name neither for a syntax error, and only the module imported for a missing export.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_CODE_DIRS, explainLoadError, importSiteOf } from '../../index.ts';
import { scratchTree } from '../support/temp.ts';

const test = suite('explainLoadError names the file and line of code that does not load');

/** An application directory holding `files`, by path from its root: ES modules, as `signalbox new` makes it. */
function application(files: Record<string, string>): string {
  return scratchTree('load-errors', { 'package.json': '{ "type": "module" }\n', ...files });
}

/**
 * What importing `file` of `root` throws under plain Node (this suite runs under a loader that reads
 * JavaScript its own way): the error made again here with Node's class, message and stack.
 */
function failureOf(root: string, file: string): Error {
  const url = pathToFileURL(join(root, file)).href;
  const script = `import(${JSON.stringify(url)}).then(() => console.log('null'), (e) => console.log(JSON.stringify({ name: e.name, message: e.message, stack: e.stack })))`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  const thrown = JSON.parse(out) as { name: string; message: string; stack: string } | null;
  if (thrown === null) throw new Error(`${file} loaded`);
  const error = thrown.name === 'SyntaxError' ? new SyntaxError(thrown.message) : new Error(thrown.message);
  error.stack = thrown.stack;
  return error;
}

test('an import of a name a module does not export: the importing file and line, which become the trace', async () => {
  const root = application({
    'config/application.js': "import { NotesController } from '../app/controllers/notes_controller.js';\nexport const controllers = { notes: NotesController };\n",
    'app/controllers/notes_controller.js': "// Notes.\n\nimport { Nte } from '../models/note.js';\nexport class NotesController { index() { return Nte; } }\n",
    'app/models/note.js': 'export class Note {}\n',
  });
  const error = failureOf(root, 'config/application.js');
  const site = importSiteOf(error);
  assert.equal(site, { file: join(root, 'app/controllers/notes_controller.js'), line: 3, column: 10 });
  const explained = explainLoadError(error, root);
  assert.instance(explained, SyntaxError);
  assert.match(explained.message, "does not provide an export named 'Nte' (in app/controllers/notes_controller.js:3)");
  assert.is(explained.stack, `SyntaxError: ${explained.message}\n    at ${join(root, 'app/controllers/notes_controller.js')}:3:10`);
  assert.is(explained.cause, error);
});

test('another syntax error: the first of the application\'s modules that node --check refuses, with its line', async () => {
  const root = application({
    'config/application.js': "import { Note } from '../app/models/note.js';\nexport const models = { Note };\n",
    'app/models/note.js': 'export class Note {\n  title() {\n    return (1;\n  }\n}\n',
  });
  const error = failureOf(root, 'config/application.js');
  assert.is(importSiteOf(error), null);
  const explained = explainLoadError(error, root);
  assert.match(explained.message, '(in app/models/note.js:3)');
  assert.match(explained.stack ?? '', `at ${join(root, 'app/models/note.js')}:3:1`);
});

test('only the directories named are checked, and an error that is no syntax error is returned as it is', async () => {
  const root = application({ 'lib/broken.js': 'export const x = (;\n', 'app/models/note.js': 'export class Note {}\n' });
  const error = failureOf(root, 'lib/broken.js');
  assert.is(explainLoadError(error, root), error, 'lib/ is none of the application code directories');
  assert.match(explainLoadError(error, root, ['lib']).message, '(in lib/broken.js:1)');
  const plain = new TypeError('not a syntax error');
  assert.is(explainLoadError(plain, root), plain);
  assert.is(explainLoadError('thrown text', root).message, 'thrown text');
  assert.is(importSiteOf(plain), null);
  assert.is(importSiteOf(undefined), null);
  assert.equal([...APP_CODE_DIRS], ['config', 'app/controllers', 'app/models', 'app/helpers']);
});

test.run();
