// Where a parcel goes, as one line (list, CSV): the parcel locker code, or the courier address.
type Destination = { shipmentType: 'parcel_locker' | 'courier'; parcelLockerCode?: string; address?: string; postalCode?: string; city?: string } | null

export function destinationOf(shipping: Destination) {
  if (!shipping) return ''
  if (shipping.shipmentType === 'parcel_locker') return shipping.parcelLockerCode ?? ''
  return [shipping.address, [shipping.postalCode, shipping.city].filter(Boolean).join(' ')].filter(Boolean).join(', ')
}
