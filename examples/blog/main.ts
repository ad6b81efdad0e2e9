/** `npm start`: the example blog. */
import { routes } from './routes.ts';

console.log(routes.print());
