export { authorizationFilter } from './authorization-filter.js';
