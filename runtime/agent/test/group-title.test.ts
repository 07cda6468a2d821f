// The task's tab group is named after the task (issue 23), never an id suffix.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { groupTitleOf } from '../group-title.ts';

const test = suite('tab group title');

test('the task title, short enough for the tab strip', () => {
  assert.is(groupTitleOf('book a table at Chez Paul', '01JD0000000000000000000A01'), 'Mimo: book a table at Chez Paul');
  const long = groupTitleOf('open https://mail.example.com and tell me who wrote to me this week', 'x');
  assert.ok(long.length <= 40 && long.endsWith('…') && long.startsWith('Mimo: open https://'), long);
  assert.is(groupTitleOf('  two\n lines ', 'x'), 'Mimo: two lines');
});

test('before the task has a title: a neutral name', () => {
  assert.is(groupTitleOf(undefined, '01JD0000000000000000000A01'), 'Mimo task 0A01');
});

test.run();
