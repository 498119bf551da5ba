import { register } from 'node:module';

register('./node20_hooks.mjs', import.meta.url);
