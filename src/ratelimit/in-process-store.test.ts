import { InProcessRateLimitStore } from './in-process-store.js';
import { rateLimitStoreContract } from './store-contract.test-suite.js';

rateLimitStoreContract('InProcessRateLimitStore', (clock) => new InProcessRateLimitStore({ clock }));
