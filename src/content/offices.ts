/**
 * The offices of the contact page: city, country, address, phone, email,
 * isHeadquarters. Neither office is the headquarters. City and country names are translated by
 * id (contact namespace, `offices.<id>`); addresses, phones and emails are shown as written.
 * Phone numbers are from the ranges reserved for fiction (Ofcom 020 7946 0xxx, NANP 555-01xx).
 */
export interface Office {
  id: 'london' | 'sanFrancisco';
  city: string;
  country: string;
  address: string;
  phone: string;
  email: string;
  isHeadquarters: boolean;
  /** Position on the map (degrees). */
  lat: number;
  lon: number;
}

export const OFFICES: Office[] = [
  {
    id: 'london',
    city: 'London',
    country: 'United Kingdom',
    address: '18 Aldgate Row, London EC3N 1AL',
    phone: '+44 20 7946 0321',
    email: 'london@manna.example',
    isHeadquarters: false,
    lat: 51.5074,
    lon: -0.1278,
  },
  {
    id: 'sanFrancisco',
    city: 'San Francisco',
    country: 'United States',
    address: '500 Harbor View Street, Suite 300, San Francisco, CA 94105',
    phone: '+1 415 555 0132',
    email: 'sf@manna.example',
    isHeadquarters: false,
    lat: 37.7749,
    lon: -122.4194,
  },
];
