import { Route, Routes } from 'react-router';
import { NotFound } from '../not-found.js';
import { OverviewScreen } from './overview-screen.js';

// Area "overview": the home page at /dashboard/, for every member (its sections follow the role).
export default function Area() {
  return (
    <Routes>
      <Route index element={<OverviewScreen />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
