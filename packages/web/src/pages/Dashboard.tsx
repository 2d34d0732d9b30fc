/** Placeholder until the dashboard is written. */
export function Dashboard() {
  return <h1>Dashboard</h1>;
}
