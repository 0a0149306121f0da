/** Google Maps part of the map box (own chunk): centre on lat/lng, or on the geocoded address. */
import clsx from 'clsx';
import { APILoadingStatus, APIProvider, Map, Marker, useApiLoadingStatus, useMap, useMapsLibrary } from '@vis.gl/react-google-maps';
import { useEffect, useState } from 'react';
import type { MapBoxProps } from './map-box-props';
import { buttonClass } from './styles';

type LatLng = { lat: number; lng: number };

/** Tokyo Station: where the map starts when nothing is known yet. */
const FALLBACK: LatLng = { lat: 35.681236, lng: 139.767125 };

function parseLatLng(lat: string, lng: string): LatLng | null {
  if (lat.trim() === '' || lng.trim() === '') return null;
  const a = Number(lat);
  const b = Number(lng);
  return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a) <= 90 && Math.abs(b) <= 180 ? { lat: a, lng: b } : null;
}

function Recenter({ center }: { center: LatLng | null }) {
  const map = useMap();
  useEffect(() => {
    if (map && center) map.panTo(center);
  }, [map, center]);
  return null;
}

function MapWithGeocoder({ address, lat, lng, onLocate }: MapBoxProps) {
  const geocoding = useMapsLibrary('geocoding');
  const status = useApiLoadingStatus();
  const failed = status === APILoadingStatus.FAILED || status === APILoadingStatus.AUTH_FAILURE;
  const stored = parseLatLng(lat, lng);
  const [geocoded, setGeocoded] = useState<LatLng | null>(null);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const center = stored ?? geocoded;

  const geocode = async (): Promise<LatLng | null> => {
    if (!geocoding || !address.trim()) return null;
    try {
      const { results } = await new geocoding.Geocoder().geocode({ address, region: 'JP' });
      const location = results[0]?.geometry.location;
      return location ? { lat: location.lat(), lng: location.lng() } : null;
    } catch {
      return null;
    }
  };

  useEffect(() => {
    if (stored || !geocoding || !address.trim()) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      void geocode().then((found) => {
        if (live) setGeocoded(found);
      });
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- geocode only when the address or the library changes
  }, [geocoding, address, stored === null]);

  const locate = async () => {
    setBusy(true);
    setProblem(undefined);
    const found = await geocode();
    setBusy(false);
    if (!found) {
      setProblem(address.trim() ? '住所から位置を取得できませんでした。住所を確認してください。' : '都道府県・市区町村・番地を入力してください。');
      return;
    }
    setGeocoded(found);
    onLocate?.(Math.round(found.lat * 1e6) / 1e6, Math.round(found.lng * 1e6) / 1e6);
  };

  return (
    <div className="flex flex-col gap-[6px]">
      <div className="relative h-[200px] w-[300px] max-w-full overflow-hidden rounded-[4px] border border-line">
        {failed && (
          <p role="note" className="absolute inset-0 z-10 flex items-center bg-subtle p-[12px] text-[13px] leading-[1.6] text-ink-soft">
            {status === APILoadingStatus.AUTH_FAILURE
              ? '地図を表示できません。Google Maps API キーが使えない状態です。管理者に確認を依頼してください。'
              : '地図を読み込めませんでした。通信環境を確認し、続くときは管理者に Google Maps API キーの確認を依頼してください。'}
          </p>
        )}
        <Map defaultCenter={center ?? FALLBACK} defaultZoom={center ? 16 : 11} gestureHandling="cooperative" disableDefaultUI zoomControl style={{ width: '100%', height: '100%' }}>
          {center && <Marker position={center} title={address} />}
          <Recenter center={center} />
        </Map>
      </div>
      {onLocate && (
        <button type="button" className={clsx(buttonClass('secondary'), 'self-start')} onClick={() => void locate()} disabled={busy || !geocoding || failed}>
          住所から位置を取得
        </button>
      )}
      {problem && (
        <p role="alert" className="text-[13px] text-danger">
          {problem}
        </p>
      )}
    </div>
  );
}

export default function GoogleMapBox({ apiKey, ...props }: MapBoxProps & { apiKey: string }) {
  return (
    <APIProvider apiKey={apiKey} language="ja" region="JP">
      <MapWithGeocoder {...props} />
    </APIProvider>
  );
}
