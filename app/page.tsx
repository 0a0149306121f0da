import App from '@/components/shell/app';

/** The one page of the static export: the client-only shell routes by hash. */
export default function Page() {
  return <App />;
}
