/** The map box's props (map-box.tsx draws it, map-box-google.tsx loads Google's map into it). */
export interface MapBoxProps {
  /** Address to geocode: prefecture + city + street. */
  address: string;
  lat: string;
  lng: string;
  /** Fills lat/lng from the geocoder (「住所から位置を取得」); absent when the form is read-only. */
  onLocate?: (lat: number, lng: number) => void;
}
