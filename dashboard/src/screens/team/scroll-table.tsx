// The people screens use the shared table (components/scroll-table.tsx).
export { ScrollTable } from '../../components/scroll-table.js';
