import { render } from 'preact';
import { signal } from '@preact/signals';
const n = signal(1);
render(<p>hello {n}</p>, document.getElementById('app')!);
