/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'export',
  // One build serves under / and /dev/: every asset URL is relative to index.html.
  assetPrefix: './',
  trailingSlash: true,
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  // `npm test` has type-checked the sources already (its first step) and says so: the build need not do it again.
  typescript: { ignoreBuildErrors: process.env.HOD_TYPES_CHECKED === '1' },
};
export default nextConfig;
