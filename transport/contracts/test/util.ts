// Valid base messages the tests mutate one field at a time.
export const TASK_ID = '01HRZ8Q3K9V2M4N6P8R0S2T4V6';
export const UUID_TASK_ID = 'C9A646D3-9C61-4CB7-BFCD-EE2522C8F633';

export const userMessage = () => ({
  v: 1,
  type: 'user_message',
  id: 'evt-user-1',
  timestamp: 1730000001000,
  taskId: TASK_ID,
  content: 'open example.com',
});

export const browserAction = (action: unknown = { browser_click: { tabId: 123, clickId: 4 } }) => ({
  v: 1,
  type: 'browser_action',
  id: 'act-001',
  taskId: TASK_ID,
  clientId: 'plugin-abc',
  timestamp: 1730000005000,
  action,
});

export const resultMessage = () => ({
  v: 1,
  type: 'browser_action_result',
  actionId: 'act-001',
  taskId: TASK_ID,
  clientId: 'plugin-abc',
  status: 'success',
  result: { clicked: true, strategy: 'cdp_mouse' },
});

export const tab = () => ({ tabId: 1, windowId: 1, active: true, pinned: false, hidden: false, index: 0 });

export const envelope = (event: Record<string, unknown>) => ({
  type: 'event',
  id: 'env-1',
  taskId: TASK_ID,
  timestamp: 1730000002500,
  event: { id: 'evt-1', timestamp: 1730000002500, ...event },
});
