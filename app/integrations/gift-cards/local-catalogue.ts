import type { GiftCardProduct } from "./gift-cards-port";

// The local gift-card vendor's brands: a few per country, each in its country's currency with the
// smallest and largest card a real vendor would sell. Invented names, so nothing looks like a real card.

interface LocalBrand extends GiftCardProduct {
  countries: string[];
}

const brand = (
  id: string,
  name: string,
  description: string,
  currency: string,
  countries: string[],
  min: number,
  max: number,
): LocalBrand => ({
  id,
  name,
  description,
  currency,
  countries,
  minAmount: min * 100,
  maxAmount: max * 100,
  imageUrl: null,
});

export const LOCAL_GIFT_CARD_BRANDS: readonly LocalBrand[] = [
  brand("LOCAL-BOOKS-USD", "Corner Bookshop", "Books, e-books and audiobooks.", "USD", ["US"], 5, 500),
  brand("LOCAL-COFFEE-USD", "Morning Roast", "Coffee and pastries at any branch.", "USD", ["US"], 5, 100),
  brand("LOCAL-TRAVEL-USD", "Far Away Travel", "Flights, trains and stays.", "USD", ["US"], 25, 2000),
  brand("LOCAL-BOOKS-GBP", "High Street Books", "Books, e-books and audiobooks.", "GBP", ["GB"], 5, 500),
  brand("LOCAL-DINING-GBP", "Supper Club", "Restaurants across the country.", "GBP", ["GB"], 10, 250),
  brand("LOCAL-BOOKS-EUR", "Buchladen am Eck", "Books, e-books and audiobooks.", "EUR", ["DE", "AT", "FR", "NL", "IE"], 5, 500),
  brand("LOCAL-SPA-EUR", "Calm Spa", "Spa days and treatments.", "EUR", ["DE", "FR", "NL"], 20, 500),
  brand("LOCAL-OUTDOOR-CAD", "Northern Trails", "Outdoor gear and clothing.", "CAD", ["CA"], 10, 1000),
  brand("LOCAL-CINEMA-AUD", "Big Screen", "Cinema tickets and snacks.", "AUD", ["AU"], 10, 200),
];

const withoutCountries = ({ countries: _countries, ...product }: LocalBrand): GiftCardProduct => product;

export const localBrandsFor = (country: string) =>
  LOCAL_GIFT_CARD_BRANDS.filter((b) => b.countries.includes(country.toUpperCase())).map(withoutCountries);

export function localBrand(id: string): GiftCardProduct | null {
  const found = LOCAL_GIFT_CARD_BRANDS.find((b) => b.id === id);
  return found ? withoutCountries(found) : null;
}
