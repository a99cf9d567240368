import { total } from '../cart';
