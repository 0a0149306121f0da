/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'export',
  // One build serves under / and /dev/: every asset URL is relative to index.html.
  assetPrefix: './',
  trailingSlash: true,
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
};
export default nextConfig;
